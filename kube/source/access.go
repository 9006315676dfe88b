package source

import (
	"context"
	"fmt"

	authenticationv1 "k8s.io/api/authentication/v1"
	authorizationv1 "k8s.io/api/authorization/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

// required are the permissions a Source cannot work without; events
// are asked for too, but their lack is only logged.
var required = []Permission{
	{"list", CustomizationResource.GroupResource()},
	{"watch", CustomizationResource.GroupResource()},
	{"list", WebhookConfigurationResource.GroupResource()},
	{"watch", WebhookConfigurationResource.GroupResource()},
}

var eventsPermission = Permission{"create", schema.GroupResource{Resource: "events"}}

// checkAccess asks the API server whether the client has the permissions
// it needs, returning an *AccessError listing those it lacks.
func (s *Source) checkAccess(ctx context.Context) error {
	var missing []Permission
	for _, p := range append(required, eventsPermission) {
		allowed, err := s.allowed(ctx, p)
		if err != nil {
			return fmt.Errorf("asking %s whether the client may %s: %w", s.host, p, err)
		}
		switch {
		case allowed:
		case p == eventsPermission:
			s.o.log.Warn("forbidden: the client may not create events; problems with objects are only logged", "permission", p.String())
		default:
			missing = append(missing, p)
		}
	}
	if len(missing) == 0 {
		return nil
	}
	e := &AccessError{Missing: missing}
	if review, err := s.kube.AuthenticationV1().SelfSubjectReviews().Create(ctx, &authenticationv1.SelfSubjectReview{}, metav1.CreateOptions{}); err == nil {
		e.User = review.Status.UserInfo.Username
	}
	return e
}

func (s *Source) allowed(ctx context.Context, p Permission) (bool, error) {
	review, err := s.kube.AuthorizationV1().SelfSubjectAccessReviews().Create(ctx, &authorizationv1.SelfSubjectAccessReview{
		Spec: authorizationv1.SelfSubjectAccessReviewSpec{ResourceAttributes: &authorizationv1.ResourceAttributes{
			Verb: p.Verb, Group: p.Resource.Group, Resource: p.Resource.Resource,
		}},
	}, metav1.CreateOptions{})
	if err != nil {
		return false, err
	}
	return review.Status.Allowed, nil
}
