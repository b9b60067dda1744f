// Command gardref runs Gardener v1.149.3's own NamespacedCloudProfile merge (MergeCloudProfiles)
// on JSON input lines {"parent": CloudProfileSpec, "ncp": NamespacedCloudProfileSpec} and writes
// one JSON line per input: the merged status.cloudProfileSpec, or {"error": "..."}.
package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"

	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"
	ncpctrl "github.com/gardener/gardener/pkg/controllermanager/controller/namespacedcloudprofile"
)

type input struct {
	Parent gardencorev1beta1.CloudProfileSpec           `json:"parent"`
	NCP    gardencorev1beta1.NamespacedCloudProfileSpec `json:"ncp"`
}

func main() {
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(make([]byte, 64<<20), 64<<20)
	out := bufio.NewWriter(os.Stdout)
	defer out.Flush()
	for in.Scan() {
		out.Write(mergeLine(in.Bytes()))
		out.WriteByte('\n')
		out.Flush()
	}
}

func mergeLine(line []byte) (res []byte) {
	defer func() {
		if r := recover(); r != nil {
			res, _ = json.Marshal(map[string]string{"panic": fmt.Sprint(r)})
		}
	}()
	var in input
	if err := json.Unmarshal(line, &in); err != nil {
		res, _ = json.Marshal(map[string]string{"error": err.Error()})
		return res
	}
	ncp := &gardencorev1beta1.NamespacedCloudProfile{Spec: in.NCP}
	cp := &gardencorev1beta1.CloudProfile{Spec: in.Parent}
	ncpctrl.MergeCloudProfiles(ncp, cp)
	out, err := json.Marshal(ncp.Status.CloudProfileSpec)
	if err != nil {
		res, _ = json.Marshal(map[string]string{"error": err.Error()})
		return res
	}
	return out
}
