-- Every Crossplane managed resource reports Synced and Ready conditions.
if obj.status == nil or obj.status.conditions == nil then
  return {status = "Missing", message = "No status reported yet"}
end
local ready, synced
for _, c in ipairs(obj.status.conditions) do
  if c.type == "Ready" then ready = c end
  if c.type == "Synced" then synced = c end
end
if synced ~= nil and synced.status == "False" then
  return {status = "Degraded", message = synced.message}
end
if ready == nil then
  return {status = "Unknown", message = "No Ready condition"}
end
if ready.status == "True" then
  return {status = "Healthy", message = "Resource is available"}
end
return {status = "Progressing", message = ready.reason}
