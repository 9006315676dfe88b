package argocd

// Script is one Lua script of a customization: a health check, a
// discovery script or an action.
type Script struct {
	// Name says where the script is, and is what its errors and coverage
	// carry: a file path, or argocd-cm's name and key.
	Name   string
	Source string
	Role   Role
	// OpenLibs is the script's useOpenLibs setting. It changes nothing
	// here: every script runs in luainterp's sandbox (see the package doc).
	OpenLibs bool
}

// Role is what a script does.
type Role string

// The roles.
const (
	RoleHealth    Role = "health"
	RoleDiscovery Role = "discovery"
	RoleAction    Role = "action"
)

// Actions are the actions of a kind: the discovery script, and each
// action's script by name.
type Actions struct {
	Discovery *Script
	ByName    map[string]*Script
	// MergeBuiltin, for an argocd-cm override, adds the tree's actions of
	// the kind to the override's (which win on a shared name).
	MergeBuiltin bool
}

// action returns the named action's script, or nil.
func (a *Actions) action(name string) *Script {
	if a == nil {
		return nil
	}
	return a.ByName[name]
}
