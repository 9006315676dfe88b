local actions = {}
actions["restart"] = {iconClass = "fa fa-fw fa-redo"}
actions["pause"] = {disabled = obj.spec.paused == true, iconClass = "fa fa-fw fa-pause"}
actions["resume"] = {disabled = obj.spec.paused ~= true, iconClass = "fa fa-fw fa-play"}
actions["scale"] = {displayName = "Scale", params = {{name = "replicas"}}}
return actions
