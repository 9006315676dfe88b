obj.spec.suspend = true
return {{operation = "patch", resource = obj}}
