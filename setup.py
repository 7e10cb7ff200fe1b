"""Build hook: compile the gettext catalogs (.po -> .mo, with Babel) whenever the package is built or
installed, editable installs included. Everything else is in pyproject.toml."""

import importlib.util
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

HERE = Path(__file__).resolve().parent


class BuildWithCatalogs(build_py):
    """``build_py`` that first writes ``bot/i18n/locale/*/LC_MESSAGES/*.mo`` from the ``.po`` files."""

    def run(self) -> None:
        spec = importlib.util.spec_from_file_location("_catalog_build", HERE / "bot" / "i18n" / "build.py")
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        for path in module.compile_all(HERE / "bot" / "i18n" / "locale"):
            self.announce(f"compiled {path.relative_to(HERE)}", level=2)
        super().run()


setup(cmdclass={"build_py": BuildWithCatalogs})
