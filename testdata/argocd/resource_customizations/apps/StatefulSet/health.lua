local status = obj.status
if status == nil or status.observedGeneration == nil then
  return {status = "Progressing", message = "Waiting for the controller"}
end
local wanted = obj.spec.replicas or 1
if (status.readyReplicas or 0) < wanted then
  return {status = "Progressing", message = "Waiting for " .. (wanted - (status.readyReplicas or 0)) .. " pods to be ready"}
end
if status.updateRevision ~= nil and status.currentRevision ~= status.updateRevision then
  return {status = "Progressing", message = "Rolling out revision " .. status.updateRevision}
end
return {status = "Healthy", message = "All pods ready"}
