local os = require("os")
obj.spec.restartAt = os.date("!%Y-%m-%dT%H:%M:%SZ")
return obj
