return {
  ["create-job"] = {iconClass = "fa fa-fw fa-play", displayName = "Run now"},
  ["suspend"] = {disabled = obj.spec.suspend == true},
}
