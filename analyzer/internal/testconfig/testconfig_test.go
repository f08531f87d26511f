package testconfig_test

import (
	"testing"

	"github.com/guardvet/guardvet/analyzer/config"
	"github.com/guardvet/guardvet/analyzer/internal/testconfig"
)

func TestSetRestores(t *testing.T) {
	if config.Current().Infer() {
		t.Fatal("inference on before the test")
	}
	t.Run("set", func(t *testing.T) {
		testconfig.Set(t, "infer", "true")
		if !config.Current().Infer() {
			t.Error("inference off after Set")
		}
	})
	if config.Current().Infer() {
		t.Error("inference still on after the subtest ended")
	}
}
