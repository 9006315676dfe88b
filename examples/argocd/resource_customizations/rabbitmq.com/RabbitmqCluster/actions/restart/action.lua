-- Restarts every node: the operator rolls the StatefulSet when the pod
-- template's annotations change.
local os = require("os")
obj.spec.override = obj.spec.override or {}
local o = obj.spec.override
o.statefulSet = o.statefulSet or {}
o.statefulSet.spec = o.statefulSet.spec or {}
o.statefulSet.spec.template = o.statefulSet.spec.template or {}
o.statefulSet.spec.template.metadata = o.statefulSet.spec.template.metadata or {}
local meta = o.statefulSet.spec.template.metadata
meta.annotations = meta.annotations or {}
meta.annotations["kubectl.kubernetes.io/restartedAt"] = os.date("!%Y-%m-%dT%H:%M:%SZ")
return obj
