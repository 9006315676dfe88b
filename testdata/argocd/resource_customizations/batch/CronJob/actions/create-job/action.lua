-- Creates a Job from the CronJob's template, owned by the CronJob.
local os = require("os")

local function deepCopy(value)
  if type(value) ~= "table" then
    return value
  end
  local copy = {}
  for k, v in pairs(value) do
    copy[k] = deepCopy(v)
  end
  return setmetatable(copy, getmetatable(value))
end

local template = obj.spec.jobTemplate
local job = {apiVersion = "batch/v1", kind = "Job"}
job.metadata = deepCopy(template.metadata or {})
job.metadata.name = obj.metadata.name .. "-" .. os.date("!%Y%m%d%H%M")
job.metadata.namespace = obj.metadata.namespace
job.metadata.annotations = {["cronjob.kubernetes.io/instantiate"] = "manual"}
job.metadata.ownerReferences = {{
  apiVersion = obj.apiVersion, kind = obj.kind, name = obj.metadata.name, uid = obj.metadata.uid,
  controller = true, blockOwnerDeletion = true,
}}
job.spec = deepCopy(template.spec)
return {{operation = "create", resource = job}}
