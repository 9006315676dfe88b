local phase = obj.status and obj.status.phase
if phase == "Bound" then
  return {status = "Healthy"}
elseif phase == "Lost" then
  return {status = "Degraded", message = "The volume is lost"}
end
return {status = "Progressing", message = "Waiting for a volume"}
