package data_test

import (
	"github.com/dpbandits/dpbandits/dpb/data"
	"github.com/dpbandits/dpbandits/dpb/ope"
)

// The logs the loaders return are ope.Logs, which the off-policy estimators
// read: checked when the tests compile, so that package data itself does not
// import package ope.
var (
	_ ope.Log = (*data.CSVLog)(nil)
	_ ope.Log = (*data.OBDLog)(nil)
	_ ope.Log = (*data.SupervisedLog)(nil)
)
