if obj.spec.suspend == true then
  return {status = "Suspended", message = "CronJob is suspended"}
end
local last = (obj.status or {}).lastScheduleTime
if last == nil then
  return {status = "Healthy", message = "Not scheduled yet"}
end
return {status = "Healthy", message = "Last scheduled at " .. last}
