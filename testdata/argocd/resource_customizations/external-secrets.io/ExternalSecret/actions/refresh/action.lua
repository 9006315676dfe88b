local os = require("os")
obj.metadata.annotations = obj.metadata.annotations or {}
obj.metadata.annotations["force-sync"] = tostring(os.time())
return obj
