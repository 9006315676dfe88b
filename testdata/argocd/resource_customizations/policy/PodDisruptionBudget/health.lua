local s = obj.status or {}
if s.currentHealthy == nil then
  return {status = "Progressing", message = "Waiting for the disruption controller"}
end
if s.currentHealthy < (s.desiredHealthy or 0) then
  return {status = "Degraded", message = "Only " .. s.currentHealthy .. " of " .. s.desiredHealthy .. " pods are healthy"}
end
return {status = "Healthy"}
