package testenv

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"fmt"
	"math/big"
	"os"
	"path/filepath"
	"testing"
	"time"

	"k8s.io/client-go/tools/clientcmd"
	clientcmdapi "k8s.io/client-go/tools/clientcmd/api"
)

// webhookClientCAFile is the file, in the API server's certificate
// folder, of the CA that signed the client certificate it presents to
// admission webhooks.
const webhookClientCAFile = "webhook-client-ca.crt"

// webhookClientName is the subject of that certificate.
const webhookClientName = "kube-apiserver-webhook-client"

// admissionConfig writes, into dir, a CA, a client certificate it signed
// and the AdmissionConfiguration that has the API server present that
// certificate to every admission webhook (the user "*" of the
// kubeconfig of its webhook plugins), as a cluster that authenticates to
// its webhooks is set up; it returns the configuration's path, for
// --admission-control-config-file.
func admissionConfig(dir string) (string, error) {
	caKey, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return "", err
	}
	now := time.Now()
	caTemplate := &x509.Certificate{
		SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "luainterp test webhook client CA"},
		NotBefore: now.Add(-time.Hour), NotAfter: now.Add(24 * time.Hour),
		IsCA: true, BasicConstraintsValid: true, KeyUsage: x509.KeyUsageCertSign,
	}
	caDER, err := x509.CreateCertificate(rand.Reader, caTemplate, caTemplate, &caKey.PublicKey, caKey)
	if err != nil {
		return "", err
	}
	ca, err := x509.ParseCertificate(caDER)
	if err != nil {
		return "", err
	}
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return "", err
	}
	certDER, err := x509.CreateCertificate(rand.Reader, &x509.Certificate{
		SerialNumber: big.NewInt(2), Subject: pkix.Name{CommonName: webhookClientName},
		NotBefore: now.Add(-time.Hour), NotAfter: now.Add(24 * time.Hour),
		KeyUsage: x509.KeyUsageDigitalSignature, ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageClientAuth},
	}, ca, &key.PublicKey, caKey)
	if err != nil {
		return "", err
	}
	keyDER, err := x509.MarshalECPrivateKey(key)
	if err != nil {
		return "", err
	}
	if err := os.WriteFile(filepath.Join(dir, webhookClientCAFile), pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: caDER}), 0o600); err != nil {
		return "", err
	}
	kc := clientcmdapi.NewConfig()
	kc.AuthInfos["*"] = &clientcmdapi.AuthInfo{
		ClientCertificateData: pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: certDER}),
		ClientKeyData:         pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: keyDER}),
	}
	kubeconfig := filepath.Join(dir, "webhook-client.kubeconfig")
	if err := clientcmd.WriteToFile(*kc, kubeconfig); err != nil {
		return "", err
	}
	config := filepath.Join(dir, "admission-configuration.yaml")
	plugin := func(name string) string {
		return fmt.Sprintf("  - name: %s\n    configuration:\n      apiVersion: apiserver.config.k8s.io/v1\n      kind: WebhookAdmissionConfiguration\n      kubeConfigFile: %q\n", name, kubeconfig)
	}
	text := "apiVersion: apiserver.config.k8s.io/v1\nkind: AdmissionConfiguration\nplugins:\n" +
		plugin("ValidatingAdmissionWebhook") + plugin("MutatingAdmissionWebhook")
	return config, os.WriteFile(config, []byte(text), 0o600)
}

// WebhookClientCA returns the file of the CA whose certificate the API
// server presents to admission webhooks, with the subject
// "CN=kube-apiserver-webhook-client": what `serve --client-ca` takes.
func (e *Env) WebhookClientCA(t testing.TB) string {
	t.Helper()
	e.Config(t)
	return filepath.Join(e.certDir, webhookClientCAFile)
}
