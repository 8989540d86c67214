package dpb

// Version is the module's semantic version (https://semver.org): the one
// CITATION.cff gives, printed by "dpb version" and recorded in every
// figure, check and audit JSON beside the commit the binary was built from.
// Below 1.0.0 a minor version may change the API. It is written out here;
// a test checks that it is the version "dpb version" and the JSON files
// record.
const Version = "0.1.0"
