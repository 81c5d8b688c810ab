"""Cannot be imported: it needs a package nobody installed."""
import atelier_not_installed_package  # noqa: F401
