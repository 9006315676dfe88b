// Package crdschema checks objects against the schemas of real
// CustomResourceDefinitions, with the machinery the Kubernetes API server
// uses for custom resources (k8s.io/apiextensions-apiserver), so that an
// object it accepts is one a cluster with that CRD installed would store
// as written.
//
// # Loading
//
// Load reads every *.yaml file of a directory, each one CRD (a leading
// comment, such as the "# source:" line of testdata/crds, is allowed),
// and keeps the schema of every served version, keyed by group, version
// and kind; a file that does not decode is a *LoadError naming it. When
// two files serve the same version of a kind, the first in name order is
// kept. A version's schema is converted to a structural schema, checked as
// the API server checks a CRD's schema, and compiled the first time an
// object of that version is validated; a schema that does not pass is an
// internal error on apiVersion, naming the file and the version.
//
// # Validating
//
// Schemas.Validate takes an object through what the API server does to a
// custom resource on create, in order:
//
//  1. apiVersion and kind must name a loaded version;
//  2. fields the schema does not declare are reported as unknown (the
//     server prunes them silently, or rejects them under strict field
//     validation); metadata is coerced and checked as ObjectMeta;
//  3. defaults from the schema are applied, and nulls the schema does not
//     allow are dropped;
//  4. metadata is validated (name, labels, annotations; a namespaced
//     object without a namespace is given one, as the request path would);
//  5. the schema validator (validation.NewSchemaValidator) checks types,
//     required fields, enums, formats, patterns and bounds;
//  6. embedded resources are checked, and x-kubernetes-list-type map and
//     set lists for duplicate keys and elements;
//  7. x-kubernetes-validations (CEL) rules are run.
//
// Schemas.ValidateStatus does steps 2, 3 and 5 to 7 for a status alone,
// against the schema of the kind's status field, as for a reflected
// status that is not part of an object. Both return a field.ErrorList
// whose paths start at the object's root ("spec.replicas",
// "status.conditions[0].reason"), in path order; unknown fields are errors of type
// field.ErrorTypeForbidden with the detail UnknownField.
//
// The object passed in is never modified.
package crdschema
