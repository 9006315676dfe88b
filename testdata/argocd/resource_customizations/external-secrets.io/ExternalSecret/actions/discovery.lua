return {refresh = {iconClass = "fa fa-fw fa-sync"}}
