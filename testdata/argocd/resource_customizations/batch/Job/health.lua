if obj.spec.suspend == true then
  return {status = "Suspended", message = "Job is suspended"}
end
for _, c in ipairs((obj.status or {}).conditions or {}) do
  if c.status == "True" then
    if c.type == "Complete" then
      return {status = "Healthy", message = c.message or "Job completed"}
    elseif c.type == "Failed" then
      return {status = "Degraded", message = c.message or "Job failed"}
    end
  end
end
return {status = "Progressing", message = "Job is running"}
