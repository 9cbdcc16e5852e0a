module footlights/peers/go

go 1.26
