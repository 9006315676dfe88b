package overrides

import (
	"errors"
	"fmt"
	"regexp"
	"strings"
)

// The Docker distribution reference grammar, without normalisation:
// reference := name [":" tag] ["@" digest].
const (
	alphanumeric      = `[a-z0-9]+`
	separator         = `(?:[._]|__|[-]+)`
	pathComponent     = alphanumeric + `(?:` + separator + alphanumeric + `)*`
	domainComponent   = `(?:[a-zA-Z0-9]|[a-zA-Z0-9][a-zA-Z0-9-]*[a-zA-Z0-9])`
	domainName        = domainComponent + `(?:\.` + domainComponent + `)*`
	ipv6Address       = `\[(?:[a-fA-F0-9:]+)\]`
	domainAndPort     = `(?:` + domainName + `|` + ipv6Address + `)(?::[0-9]+)?`
	namePattern       = `(?:` + domainAndPort + `/)?` + pathComponent + `(?:/` + pathComponent + `)*`
	tagPattern        = `[\w][\w.-]{0,127}`
	digestPattern     = `[A-Za-z][A-Za-z0-9]*(?:[-_+.][A-Za-z][A-Za-z0-9]*)*:[0-9a-fA-F]{32,}`
	maxImageNameBytes = 255
)

var (
	referenceRegexp = regexp.MustCompile(`^(` + namePattern + `)(?::(` + tagPattern + `))?(?:@(` + digestPattern + `))?$`)
	tagRegexp       = regexp.MustCompile(`^` + tagPattern + `$`)
	digestRegexp    = regexp.MustCompile(`^` + digestPattern + `$`)
)

// imageRef is a parsed container image reference. Tag and Digest are never
// both set.
type imageRef struct {
	Registry   string
	Repository string
	Tag        string
	Digest     string
}

// parseImage parses s by the distribution reference grammar. The part
// before the first "/" is the registry only when it holds "." or ":" or is
// "localhost"; a digest given together with a tag is dropped.
func parseImage(s string) (imageRef, error) {
	m := referenceRegexp.FindStringSubmatch(s)
	if m == nil {
		switch {
		case s == "":
			return imageRef{}, errors.New("parse image \"\": repository name must have at least one component")
		case referenceRegexp.MatchString(strings.ToLower(s)):
			return imageRef{}, fmt.Errorf("parse image %q: repository name must be lowercase", s)
		}
		return imageRef{}, fmt.Errorf("parse image %q: invalid reference format", s)
	}
	if len(m[1]) > maxImageNameBytes {
		return imageRef{}, fmt.Errorf("parse image %q: repository name must not be more than %d characters", s, maxImageNameBytes)
	}
	ref := imageRef{Repository: m[1], Tag: m[2]}
	if ref.Tag == "" {
		ref.Digest = m[3]
	}
	if host, rest, ok := strings.Cut(m[1], "/"); ok && (strings.ContainsAny(host, ".:") || host == "localhost") {
		ref.Registry, ref.Repository = host, rest
	}
	return ref, nil
}

// String re-assembles the reference as it comes, degenerate or not.
func (r imageRef) String() string {
	s := r.Repository
	if r.Registry != "" {
		s = r.Registry + "/" + s
	}
	switch {
	case r.Tag != "":
		s += ":" + r.Tag
	case r.Digest != "":
		s += "@" + r.Digest
	}
	return s
}

// setTagOrDigest makes s the tag when it is one, else the digest when it is
// one; otherwise nothing changes.
func (r *imageRef) setTagOrDigest(s string) {
	switch {
	case tagRegexp.MatchString(s):
		r.Tag, r.Digest = s, ""
	case digestRegexp.MatchString(s):
		r.Tag, r.Digest = "", s
	}
}

// apply changes one component of r as the overrider says.
func (r *imageRef) apply(component, operator, value string) error {
	var field *string
	switch component {
	case "Registry":
		field = &r.Registry
	case "Repository":
		field = &r.Repository
	case "Tag":
		return r.applyTag(operator, value)
	default:
		return fmt.Errorf("unknown image component %q: want Registry, Repository or Tag", component)
	}
	switch operator {
	case "add":
		*field += value
	case "replace":
		*field = value
	case "remove":
		*field = ""
	default:
		return unknownOperator(operator, "add, remove or replace")
	}
	return nil
}

func (r *imageRef) applyTag(operator, value string) error {
	switch operator {
	case "add":
		current := r.Tag
		if current == "" {
			current = r.Digest
		}
		r.setTagOrDigest(current + value)
	case "replace":
		r.setTagOrDigest(value)
	case "remove":
		if r.Tag != "" {
			r.Tag = ""
		} else {
			r.Digest = ""
		}
	default:
		return unknownOperator(operator, "add, remove or replace")
	}
	return nil
}

func unknownOperator(operator, want string) error {
	return fmt.Errorf("unknown operator %q: want %s", operator, want)
}
