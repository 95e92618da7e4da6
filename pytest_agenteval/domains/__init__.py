"""The shipped environments. Each is registered by name in ``environments.registry``."""
