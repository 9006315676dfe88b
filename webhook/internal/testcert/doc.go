// Package testcert makes a certificate authority and serving certificates
// signed by it, for the TLS tests of the webhook packages.
package testcert
