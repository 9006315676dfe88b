for _, c in ipairs((obj.status or {}).conditions or {}) do
  if c.type == "Ready" then
    if c.status == "True" then
      return {status = "Healthy", message = c.message}
    end
    return {status = "Degraded", message = c.message}
  end
end
return {status = "Progressing", message = "Waiting for the first sync"}
