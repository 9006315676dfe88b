-- A Deployment is healthy once the controller has seen the newest spec
-- and every replica is updated and available.
local hs = {}
local status = obj.status or {}
local wanted = obj.spec.replicas or 1
if obj.spec.paused then
  hs.status = "Suspended"
  hs.message = "Deployment is paused"
  return hs
end
if (status.observedGeneration or 0) < (obj.metadata.generation or 0) then
  hs.status = "Progressing"
  hs.message = "Waiting for the rollout to be observed"
  return hs
end
for _, c in ipairs(status.conditions or {}) do
  if c.type == "Progressing" and c.reason == "ProgressDeadlineExceeded" then
    hs.status = "Degraded"
    hs.message = "Deployment " .. obj.metadata.name .. " exceeded its progress deadline"
    return hs
  end
end
local updated = status.updatedReplicas or 0
local available = status.availableReplicas or 0
if updated < wanted or available < wanted then
  hs.status = "Progressing"
  hs.message = string.format("%d of %d replicas available", available, wanted)
  return hs
end
hs.status = "Healthy"
return hs
