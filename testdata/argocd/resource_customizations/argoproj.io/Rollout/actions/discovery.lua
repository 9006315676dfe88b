local actions = {}
actions["resume"] = {disabled = not (obj.status ~= nil and obj.status.pauseConditions ~= nil)}
actions["restart"] = {iconClass = "fa fa-fw fa-redo"}
return actions
