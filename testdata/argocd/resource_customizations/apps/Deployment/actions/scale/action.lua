local n = tonumber(actionParams["replicas"])
if n == nil or n < 0 or n ~= math.floor(n) then
  error("invalid number: " .. tostring(actionParams["replicas"]), 0)
end
obj.spec.replicas = n
return obj
