"""What task families of every app share: reading answers, picking variants, adversaries."""
