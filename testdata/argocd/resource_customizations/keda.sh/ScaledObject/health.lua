local annotations = obj.metadata.annotations or {}
if annotations["autoscaling.keda.sh/paused"] == "true" or annotations["autoscaling.keda.sh/paused-replicas"] ~= nil then
  return {status = "Suspended", message = "ScaledObject is paused"}
end
for _, c in ipairs((obj.status or {}).conditions or {}) do
  if c.type == "Ready" and c.status == "False" then
    return {status = "Degraded", message = c.message}
  end
end
return {status = "Healthy", message = "ScaledObject is ready"}
