package testwg
