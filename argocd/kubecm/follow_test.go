package kubecm_test

import (
	"context"
	"os"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"

	"github.com/luainterp/luainterp/argocd/kubecm"
	"github.com/luainterp/luainterp/internal/testenv"
)

var env *testenv.Env

func TestMain(m *testing.M) { os.Exit(testenv.Main(m, &env)) }

// seen records what Follow applies: the data of each version, or "deleted".
type seen struct {
	mu   sync.Mutex
	list []string
}

func (s *seen) apply(cm *corev1.ConfigMap) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if cm == nil {
		s.list = append(s.list, "deleted")
		return
	}
	s.list = append(s.list, cm.Data["k"])
}

func (s *seen) last() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.list) == 0 {
		return ""
	}
	return s.list[len(s.list)-1]
}

func TestFollow(t *testing.T) {
	client := kubernetes.NewForConfigOrDie(env.Config(t))
	cms := client.CoreV1().ConfigMaps(metav1.NamespaceDefault)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	_, err := cms.Create(ctx, &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "other"}, Data: map[string]string{"k": "other"}}, metav1.CreateOptions{})
	require.NoError(t, err)

	var s seen
	require.NoError(t, kubecm.Follow(ctx, client, metav1.NamespaceDefault, "argocd-cm", s.apply))
	assert.Equal(t, []string{"deleted"}, s.list, "a ConfigMap that does not exist is applied as nil once listed")

	cm, err := cms.Create(ctx, &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "argocd-cm"}, Data: map[string]string{"k": "v1"}}, metav1.CreateOptions{})
	require.NoError(t, err)
	require.Eventually(t, func() bool { return s.last() == "v1" }, 10*time.Second, time.Millisecond)
	cm.Data["k"] = "v2"
	_, err = cms.Update(ctx, cm, metav1.UpdateOptions{})
	require.NoError(t, err)
	require.Eventually(t, func() bool { return s.last() == "v2" }, 10*time.Second, time.Millisecond)
	require.NoError(t, cms.Delete(ctx, "argocd-cm", metav1.DeleteOptions{}))
	require.Eventually(t, func() bool { return s.last() == "deleted" }, 10*time.Second, time.Millisecond)
	s.mu.Lock()
	defer s.mu.Unlock()
	assert.Equal(t, []string{"deleted", "v1", "v2", "deleted"}, s.list, "the other ConfigMap is never applied")

	var again seen
	_, err = cms.Create(ctx, &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "argocd-cm"}, Data: map[string]string{"k": "v3"}}, metav1.CreateOptions{})
	require.NoError(t, err)
	require.NoError(t, kubecm.Follow(ctx, client, metav1.NamespaceDefault, "argocd-cm", again.apply))
	assert.Equal(t, []string{"v3"}, again.list, "an existing ConfigMap is applied before Follow returns")
}
