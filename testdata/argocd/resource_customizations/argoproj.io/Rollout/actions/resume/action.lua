if obj.status ~= nil then
  obj.status.pauseConditions = nil
end
obj.spec.paused = false
return obj
