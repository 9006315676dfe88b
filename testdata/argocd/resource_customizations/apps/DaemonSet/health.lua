local s = obj.status or {}
if s.desiredNumberScheduled == nil then
  return {status = "Progressing"}
end
if s.numberMisscheduled ~= nil and s.numberMisscheduled > 0 then
  return {status = "Degraded", message = s.numberMisscheduled .. " pods run where they should not"}
end
if (s.numberAvailable or 0) < s.desiredNumberScheduled then
  return {status = "Progressing", message = (s.numberAvailable or 0) .. "/" .. s.desiredNumberScheduled .. " available"}
end
return {status = "Healthy"}
