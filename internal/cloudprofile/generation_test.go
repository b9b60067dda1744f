package cloudprofile

import "testing"

// TestGeneration_AsGardenersStrategiesSetIt: a CloudProfile's generation is never set; a
// NamespacedCloudProfile's starts at 1 and grows with each change of the stored spec.
func TestGeneration_AsGardenersStrategiesSetIt(t *testing.T) {
	if got := CloudProfileGeneration(0); got != 0 {
		t.Errorf("CloudProfile: %d", got)
	}
	for _, c := range []struct {
		prior              int64
		create, specChange bool
		want               int64
	}{
		{0, true, true, 1},
		{3, false, true, 4},
		{3, false, false, 3},
	} {
		if got := NamespacedCloudProfileGeneration(c.prior, c.create, c.specChange); got != c.want {
			t.Errorf("NamespacedCloudProfileGeneration(%d, %v, %v) = %d, want %d", c.prior, c.create, c.specChange, got, c.want)
		}
	}
}
