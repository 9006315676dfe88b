local conditions = (obj.status or {}).conditions
if conditions == nil then
  return {status = "Progressing", message = "Waiting for the certificate"}
end
for _, c in ipairs(conditions) do
  if c.type == "Issuing" and c.status == "True" then
    return {status = "Progressing", message = c.message}
  end
end
for _, c in ipairs(conditions) do
  if c.type == "Ready" then
    if c.status == "True" then
      return {status = "Healthy", message = c.message}
    end
    return {status = "Degraded", message = c.message}
  end
end
return {status = "Progressing", message = "Waiting for the certificate"}
