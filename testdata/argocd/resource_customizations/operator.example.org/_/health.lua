-- The operator's kinds share one status shape: status.state.
local state = obj.status and obj.status.state
local known = {Running = "Healthy", Paused = "Suspended", Failed = "Degraded", Pending = "Progressing"}
if state == nil then
  return nil
end
if known[state] == nil then
  return {status = state}
end
return {status = known[state], message = obj.kind .. " is " .. string.lower(state)}
