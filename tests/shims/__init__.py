"""Well-behaved partial SUTs, for testing how jaxcheck treats what an SUT declares."""
