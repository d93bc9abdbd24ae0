"""Which `types-X` distribution (typeshed's third-party stubs) provides a module.

`typeshed_client` bundles only the standard library, so when an import of a
well-known untyped library fails we can still tell the user which stub package
to install. This table is written by hand for widely used libraries and kept
deliberately conservative: a library that now ships its own types (redis,
attrs, termcolor, ...) is not listed, since pointing at a removed stub
package would be wrong. Keys are top-level module names, or dotted names
where one distribution covers only a subpackage (`google.protobuf`).
"""

from __future__ import annotations

STUB_DISTRIBUTIONS: dict[str, str] = {
    # Web, HTTP, networking
    "requests": "types-requests",
    "requests_oauthlib": "types-requests-oauthlib",
    "oauthlib": "types-oauthlib",
    "httplib2": "types-httplib2",
    "paramiko": "types-paramiko",
    "pysftp": "types-pysftp",
    "OpenSSL": "types-pyOpenSSL",
    "netaddr": "types-netaddr",
    "ldap3": "types-ldap3",
    "hvac": "types-hvac",
    "flask_cors": "types-Flask-Cors",
    "flask_migrate": "types-Flask-Migrate",
    "flask_socketio": "types-Flask-SocketIO",
    "waitress": "types-waitress",
    "uwsgi": "types-uWSGI",
    "uwsgidecorators": "types-uWSGI",
    "grpc": "types-grpcio",
    "google.protobuf": "types-protobuf",
    "jwcrypto": "types-jwcrypto",
    "saml2": "types-pysaml2",
    "nmap": "types-python-nmap",
    # Data formats and parsing
    "yaml": "types-PyYAML",
    "toml": "types-toml",
    "simplejson": "types-simplejson",
    "ujson": "types-ujson",
    "xmltodict": "types-xmltodict",
    "markdown": "types-Markdown",
    "commonmark": "types-commonmark",
    "docutils": "types-docutils",
    "html5lib": "types-html5lib",
    "bleach": "types-bleach",
    "defusedxml": "types-defusedxml",
    "jsonschema": "types-jsonschema",
    "jmespath": "types-jmespath",
    "openpyxl": "types-openpyxl",
    "pyasn1": "types-pyasn1",
    "polib": "types-polib",
    "parsimonious": "types-parsimonious",
    "unidiff": "types-unidiff",
    "whatthepatch": "types-whatthepatch",
    "icalendar": "types-icalendar",
    "vobject": "types-vobject",
    "olefile": "types-olefile",
    "reportlab": "types-reportlab",
    "fpdf": "types-fpdf2",
    "pygments": "types-Pygments",
    "chevron": "types-chevron",
    # Dates and times
    "dateutil": "types-python-dateutil",
    "pytz": "types-pytz",
    "croniter": "types-croniter",
    "pyrfc3339": "types-pyRFC3339",
    # Utilities
    "six": "types-six",
    "mock": "types-mock",
    "tabulate": "types-tabulate",
    "cachetools": "types-cachetools",
    "tqdm": "types-tqdm",
    "regex": "types-regex",
    "toposort": "types-toposort",
    "first": "types-first",
    "deprecated": "types-Deprecated",
    "docopt": "types-docopt",
    "boltons": "types-boltons",
    "slugify": "types-python-slugify",
    "retry": "types-retry",
    "passlib": "types-passlib",
    "zxcvbn": "types-zxcvbn",
    "nanoid": "types-nanoid",
    "qrcode": "types-qrcode",
    "setproctitle": "types-setproctitle",
    "pexpect": "types-pexpect",
    "psutil": "types-psutil",
    "pyperclip": "types-pyperclip",
    "send2trash": "types-Send2Trash",
    "portpicker": "types-portpicker",
    "assertpy": "types-assertpy",
    "cffi": "types-cffi",
    "greenlet": "types-greenlet",
    "lupa": "types-lupa",
    "networkx": "types-networkx",
    "shapely": "types-shapely",
    "seaborn": "types-seaborn",
    "pycocotools": "types-pycocotools",
    "antlr4": "types-antlr4-python3-runtime",
    "aws_xray_sdk": "types-aws-xray-sdk",
    "jenkins": "types-python-jenkins",
    "hdbcli": "types-hdbcli",
    "ibm_db": "types-ibm-db",
    "psycopg2": "types-psycopg2",
    "pymysql": "types-PyMySQL",
    "caldav": "types-caldav",
    "workalendar": "types-workalendar",
    "dockerfile_parse": "types-dockerfile-parse",
    "click_spinner": "types-click-spinner",
    "google.cloud.ndb": "types-google-cloud-ndb",
    # Packaging and build
    "setuptools": "types-setuptools",
    "PyInstaller": "types-pyinstaller",
    "pyflakes": "types-pyflakes",
    # Devices, desktop, OS
    "serial": "types-pyserial",
    "pyaudio": "types-pyaudio",
    "pycurl": "types-pycurl",
    "pynput": "types-pynput",
    "pyautogui": "types-PyAutoGUI",
    "pyscreeze": "types-PyScreeze",
    "xdg": "types-pyxdg",
    "Xlib": "types-python-xlib",
    "ttkthemes": "types-ttkthemes",
    "gdb": "types-gdb",
    "s2clientprotocol": "types-s2clientprotocol",
    # pywin32 installs many top-level modules; one stub distribution covers them.
    "win32api": "types-pywin32",
    "win32con": "types-pywin32",
    "win32gui": "types-pywin32",
    "win32file": "types-pywin32",
    "win32event": "types-pywin32",
    "win32process": "types-pywin32",
    "win32service": "types-pywin32",
    "win32serviceutil": "types-pywin32",
    "win32clipboard": "types-pywin32",
    "win32com": "types-pywin32",
    "win32pipe": "types-pywin32",
    "win32security": "types-pywin32",
    "win32timezone": "types-pywin32",
    "winerror": "types-pywin32",
    "pythoncom": "types-pywin32",
    "pywintypes": "types-pywin32",
}


def stub_key(module: str) -> str | None:
    """The longest prefix of `module` that the table lists, if any."""
    parts = module.split(".")
    for n in range(len(parts), 0, -1):
        key = ".".join(parts[:n])
        if key in STUB_DISTRIBUTIONS:
            return key
    return None


def stub_distribution(module: str) -> str | None:
    """The `types-X` distribution with stubs for `module` (longest listed prefix), if known."""
    key = stub_key(module)
    return STUB_DISTRIBUTIONS[key] if key is not None else None


def install_hint(module: str) -> str | None:
    dist = stub_distribution(module)
    if dist is None:
        return None
    return f'Hint: "python3 -m pip install {dist}"'
