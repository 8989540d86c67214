package dpb

import "github.com/dpbandits/dpbandits/dpb/internal/snap"

// Version is the module's semantic version (https://semver.org): the one
// CITATION.cff gives, printed by "dpb version" and recorded in every
// figure, check and audit JSON beside the commit the binary was built from.
// Below 1.0.0 a minor version may change the API.
const Version = snap.Version
