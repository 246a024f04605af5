print("origami")
