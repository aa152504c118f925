package metric

// Twice is for the external test.
var Twice = twice

const twice = 2
