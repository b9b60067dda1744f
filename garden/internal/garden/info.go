package garden

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"runtime"
	"runtime/debug"
	"strings"

	corev1 "k8s.io/api/core/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apiserver/pkg/authentication/user"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/yaml"

	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"
	v1beta1constants "github.com/gardener/gardener/pkg/apis/core/v1beta1/constants"
	gardenerutils "github.com/gardener/gardener/pkg/utils/gardener"
)

// What gardener-operator publishes in every Garden it manages, and the local Garden too: the
// ConfigMap gardener-info in the namespace gardener-system-public, whose data key gardenerAPIServer
// holds gardener-apiserver's version as YAML (Gardener's APIServerInfo), readable by every
// authenticated user through a Role and RoleBinding of that namespace. The local Garden runs the
// gardener-apiserver of the Gardener module it is built with, so it publishes that module's version.

// gardenerModule is the module path of Gardener, whose version the local Garden runs.
const gardenerModule = "github.com/gardener/gardener"

// readGardenerInfo names the Role and RoleBinding that let every authenticated user read
// gardener-info, as gardener-operator names them.
const readGardenerInfo = "gardener.cloud:system:read-gardener-system-public"

// GardenerVersion is the version of the Gardener module this binary was built with (its
// gardener-apiserver's release), read from the build info, such as "v1.149.3". A test binary's
// build info lists no dependencies; there the version comes from the module cache's directory
// name of Gardener's source (versionOfGardenerSource).
func GardenerVersion() (string, error) {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return "", errors.New("the binary carries no build info")
	}
	if len(info.Deps) == 0 {
		if version, found := versionOfGardenerSource(); found {
			return version, nil
		}
	}
	for _, dep := range info.Deps {
		if dep.Path != gardenerModule {
			continue
		}
		if dep.Replace != nil && dep.Replace.Version != "" {
			return dep.Replace.Version, nil
		}
		return dep.Version, nil
	}
	return "", fmt.Errorf("the build info lists no module %s", gardenerModule)
}

// versionOfGardenerSource is the version in the path of the source file of a function of Gardener's
// module, which the module cache (and -trimpath) names module@version.
func versionOfGardenerSource() (string, bool) {
	pc := reflect.ValueOf(gardenerutils.GenerateBackupEntryName).Pointer()
	file, _ := runtime.FuncForPC(pc).FileLine(pc)
	_, rest, found := strings.Cut(file, gardenerModule+"@")
	if !found {
		return "", false
	}
	version, _, _ := strings.Cut(rest, "/")
	return version, version != ""
}

// publishInfo creates gardener-info with version and the RBAC that lets every authenticated user
// read it.
func publishInfo(ctx context.Context, c client.Client, version string) error {
	objects, err := infoObjects(version)
	if err != nil {
		return err
	}
	for _, obj := range objects {
		if err := c.Create(ctx, obj); err != nil && !apierrors.IsAlreadyExists(err) {
			return fmt.Errorf("creating %T %s: %w", obj, obj.GetName(), err)
		}
	}
	return nil
}

// infoObjects lists, in creation order, the namespace gardener-system-public, gardener-info with
// version, and the Role and RoleBinding that let every authenticated user read it.
func infoObjects(version string) ([]client.Object, error) {
	raw, err := yaml.Marshal(gardenerutils.APIServerInfo{Version: version})
	if err != nil {
		return nil, err
	}
	namespace := gardencorev1beta1.GardenerSystemPublicNamespace
	return []client.Object{
		&corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: namespace}},
		&corev1.ConfigMap{
			ObjectMeta: metav1.ObjectMeta{Name: v1beta1constants.ConfigMapNameGardenerInfo, Namespace: namespace},
			Data:       map[string]string{v1beta1constants.GardenerInfoConfigMapDataKeyGardenerAPIServer: string(raw)},
		},
		&rbacv1.Role{
			ObjectMeta: metav1.ObjectMeta{Name: readGardenerInfo, Namespace: namespace},
			Rules: []rbacv1.PolicyRule{{
				APIGroups:     []string{corev1.GroupName},
				Resources:     []string{"configmaps"},
				ResourceNames: []string{v1beta1constants.ConfigMapNameGardenerInfo, "kube-root-ca.crt"},
				Verbs:         []string{"get", "list", "watch"},
			}},
		},
		&rbacv1.RoleBinding{
			ObjectMeta: metav1.ObjectMeta{Name: readGardenerInfo, Namespace: namespace},
			RoleRef:    rbacv1.RoleRef{APIGroup: rbacv1.GroupName, Kind: "Role", Name: readGardenerInfo},
			Subjects:   []rbacv1.Subject{{APIGroup: rbacv1.GroupName, Kind: rbacv1.GroupKind, Name: user.AllAuthenticated}},
		},
	}, nil
}
