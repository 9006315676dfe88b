local s = obj.status or {}
if obj.spec.paused == true or (s.pauseConditions ~= nil and #s.pauseConditions > 0) then
  local reasons = {}
  for _, c in ipairs(s.pauseConditions or {}) do
    table.insert(reasons, c.reason)
  end
  table.sort(reasons)
  return {status = "Suspended", message = "Rollout is paused" .. (#reasons > 0 and (": " .. table.concat(reasons, ", ")) or "")}
end
if s.phase == "Degraded" then
  return {status = "Degraded", message = s.message}
end
if s.phase == "Healthy" then
  return {status = "Healthy"}
end
return {status = "Progressing", message = s.message or "Rollout is progressing"}
