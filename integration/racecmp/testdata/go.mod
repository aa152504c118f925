module racecorpus

go 1.26
