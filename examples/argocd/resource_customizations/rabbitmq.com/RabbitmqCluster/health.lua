-- A RabbitmqCluster is healthy once its operator has seen the latest spec
-- and reports AllReplicasReady and ClusterAvailable.
local status = obj.status
if status == nil or status.observedGeneration == nil
    or status.observedGeneration < (obj.metadata.generation or 0) then
  return {status = "Progressing", message = "Waiting for the operator to observe the cluster"}
end
if obj.metadata.annotations ~= nil
    and obj.metadata.annotations["rabbitmq.com/reconcile-paused"] == "true" then
  return {status = "Suspended", message = "Reconciliation is paused"}
end
local conditions = {}
for _, c in ipairs(status.conditions or {}) do
  conditions[c.type] = c
end
local failed = conditions["ReconcileSuccess"]
if failed ~= nil and failed.status == "False" then
  return {status = "Degraded", message = failed.message or failed.reason}
end
for _, name in ipairs({"AllReplicasReady", "ClusterAvailable"}) do
  local c = conditions[name]
  if c == nil or c.status ~= "True" then
    return {status = "Progressing", message = "Waiting for " .. name}
  end
end
return {status = "Healthy", message = "The cluster is available"}
