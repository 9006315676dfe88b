local os = require("os")
obj.spec.template.metadata = obj.spec.template.metadata or {}
obj.spec.template.metadata.annotations = obj.spec.template.metadata.annotations or {}
obj.spec.template.metadata.annotations["kubectl.kubernetes.io/restartedAt"] = os.date("!%Y-%m-%dT%XZ")
return obj
