return {restart = {iconClass = "fa fa-fw fa-redo", displayName = "Restart the nodes"}}
