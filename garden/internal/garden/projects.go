package garden

import (
	"context"
	"fmt"
	"path/filepath"
	"time"

	authenticationv1 "k8s.io/api/authentication/v1"
	corev1 "k8s.io/api/core/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"
	clientcmdapi "k8s.io/client-go/tools/clientcmd/api"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/controller-runtime/pkg/client"

	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"
)

const (
	// ServiceAccountName is the name of the project user's ServiceAccount in each project namespace.
	ServiceAccountName = "terraform"
	// cloudProfileReader names the ClusterRole that lets project users read CloudProfiles.
	cloudProfileReader = "local-garden:cloudprofile-reader"
	// tokenLifetime is the validity of the project users' tokens; the signing key dies with the Garden.
	tokenLifetime = 365 * 24 * time.Hour
)

// ProjectNamespace returns the namespace of the project with the given name.
func ProjectNamespace(project string) string { return "garden-" + project }

// ProjectKubeconfigPath returns where the kubeconfig of a project's user is written, beside the admin one.
func ProjectKubeconfigPath(adminKubeconfig, project string) string {
	return filepath.Join(filepath.Dir(adminKubeconfig), "project-"+project+".kubeconfig")
}

// setUpProject creates the project's namespace, its Project object and a ServiceAccount allowed to
// manage NamespacedCloudProfiles there and to read CloudProfiles, and writes that user's kubeconfig.
func setUpProject(ctx context.Context, c client.Client, cfg *rest.Config, name, adminKubeconfig string) (string, error) {
	namespace := ProjectNamespace(name)
	for _, obj := range projectObjects(name, namespace) {
		if err := c.Create(ctx, obj); err != nil && !apierrors.IsAlreadyExists(err) {
			return "", fmt.Errorf("creating %T %s: %w", obj, obj.GetName(), err)
		}
	}
	token, err := requestToken(ctx, cfg, namespace)
	if err != nil {
		return "", err
	}
	path := ProjectKubeconfigPath(adminKubeconfig, name)
	return path, writeKubeconfig(path, cfg, &clientcmdapi.AuthInfo{Token: token}, namespace)
}

// projectObjects lists, in creation order, the objects that make up a project and its user.
func projectObjects(name, namespace string) []client.Object {
	subject := rbacv1.Subject{Kind: rbacv1.ServiceAccountKind, Name: ServiceAccountName, Namespace: namespace}
	return []client.Object{
		&corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: namespace, Labels: map[string]string{
			"gardener.cloud/role": "project", "project.gardener.cloud/name": name,
		}}},
		&gardencorev1beta1.Project{
			ObjectMeta: metav1.ObjectMeta{Name: name},
			Spec:       gardencorev1beta1.ProjectSpec{Namespace: ptr.To(namespace)},
		},
		&corev1.ServiceAccount{ObjectMeta: metav1.ObjectMeta{Name: ServiceAccountName, Namespace: namespace}},
		&rbacv1.Role{
			ObjectMeta: metav1.ObjectMeta{Name: ServiceAccountName, Namespace: namespace},
			Rules: []rbacv1.PolicyRule{{
				APIGroups: []string{gardencorev1beta1.GroupName},
				Resources: []string{"namespacedcloudprofiles"},
				Verbs: []string{"get", "list", "watch", "create", "update", "patch", "delete", "deletecollection",
					"modify-spec-kubernetes", "modify-spec-machineimages", "modify-spec-providerconfig"},
			}},
		},
		&rbacv1.RoleBinding{
			ObjectMeta: metav1.ObjectMeta{Name: ServiceAccountName, Namespace: namespace},
			RoleRef:    rbacv1.RoleRef{APIGroup: rbacv1.GroupName, Kind: "Role", Name: ServiceAccountName},
			Subjects:   []rbacv1.Subject{subject},
		},
		&rbacv1.ClusterRole{
			ObjectMeta: metav1.ObjectMeta{Name: cloudProfileReader},
			Rules: []rbacv1.PolicyRule{{
				APIGroups: []string{gardencorev1beta1.GroupName},
				Resources: []string{"cloudprofiles"},
				Verbs:     []string{"get", "list", "watch"},
			}},
		},
		&rbacv1.ClusterRoleBinding{
			ObjectMeta: metav1.ObjectMeta{Name: cloudProfileReader + ":" + name},
			RoleRef:    rbacv1.RoleRef{APIGroup: rbacv1.GroupName, Kind: "ClusterRole", Name: cloudProfileReader},
			Subjects:   []rbacv1.Subject{subject},
		},
	}
}

// requestToken asks the TokenRequest API for a token of the project's ServiceAccount.
func requestToken(ctx context.Context, cfg *rest.Config, namespace string) (string, error) {
	cs, err := kubernetes.NewForConfig(cfg)
	if err != nil {
		return "", err
	}
	req := &authenticationv1.TokenRequest{Spec: authenticationv1.TokenRequestSpec{
		ExpirationSeconds: ptr.To(int64(tokenLifetime / time.Second)),
	}}
	resp, err := cs.CoreV1().ServiceAccounts(namespace).CreateToken(ctx, ServiceAccountName, req, metav1.CreateOptions{})
	if err != nil {
		return "", fmt.Errorf("requesting token: %w", err)
	}
	return resp.Status.Token, nil
}
