"""What Cuvil knows about the library calls compiled code makes (DESIGN §1, library/)."""
