; Inno Setup script for the Windows installer of "Transporte por Aplicativo" (Lei nº 2.103/2025), issue 17.
;
; Build on a Windows build machine (Python 3.12+, Inno Setup 6), from the repository root:
;   python -m pip install -e ".[build]"
;   pyinstaller --noconfirm packaging\desktop.spec      -> dist\TransporteAplicativo\ (checked on Linux by CI)
;   (the manual, resources\manual\manual.pdf, is built by tools/manual.py and kept in the repository)
;   iscc installer.iss                                  -> dist\installer\TransporteAplicativo-<versão>-setup.exe
; tests/packaging/test_installer.py checks the version, names and paths below against pyproject.toml and the spec.
;
; - Per user, no administrator rights (PrivilegesRequired=lowest): the program goes to
;   %LOCALAPPDATA%\Programs\TransporteAplicativo.
; - The data are NOT here: the database, settings and key files live in the user's data folder
;   (%LOCALAPPDATA%\ChapadaTransporte, desktop/settings.py APP_NAME) or on the PostgreSQL server. Nothing below
;   installs into, deletes from or uninstalls that folder: uninstalling removes the program, never a legal record.
; - Upgrade in place: the same AppId finds the previous installation and replaces the program's files (the old
;   _internal\ folder first, so no module of the old version is left behind). At the first start the new version
;   copies the SQLite file aside (transporte.antes-<revisão>-<data>.sqlite3, desktop/migrate.py) and migrates it.

#define AppName "Transporte por Aplicativo"
#define AppVersion "0.1.0"
#define AppPublisher "Prefeitura Municipal de Chapada dos Guimarães"
#define BundleName "TransporteAplicativo"
#define AppExe "TransporteAplicativo.exe"
#define DataFolderName "ChapadaTransporte"
#define ManualSource "resources\manual\manual.pdf"
#define ManualPath "docs\manual\manual.pdf"

[Setup]
AppId={{6C1F6E52-2F4B-4C1E-9D1A-2103C2025A01}
AppName={#AppName}
AppVersion={#AppVersion}
AppVerName={#AppName} {#AppVersion}
VersionInfoVersion={#AppVersion}
AppPublisher={#AppPublisher}
PrivilegesRequired=lowest
DefaultDirName={userpf}\{#BundleName}
DefaultGroupName={#AppName}
DisableProgramGroupPage=yes
UsePreviousAppDir=yes
CloseApplications=yes
RestartApplications=no
OutputDir=dist\installer
OutputBaseFilename={#BundleName}-{#AppVersion}-setup
Compression=lzma2
SolidCompression=yes
ArchitecturesAllowed=x64compatible
ArchitecturesInstallIn64BitMode=x64compatible
WizardStyle=modern
UninstallDisplayIcon={app}\{#AppExe}
UninstallDisplayName={#AppName}

[Languages]
Name: "brazilianportuguese"; MessagesFile: "compiler:Languages\BrazilianPortuguese.isl"

[Tasks]
Name: "desktopicon"; Description: "{cm:CreateDesktopIcon}"; GroupDescription: "{cm:AdditionalIcons}"

[InstallDelete]
; the previous version's modules and Qt plugins (inside the program folder only)
Type: filesandordirs; Name: "{app}\_internal"

[Files]
Source: "dist\{#BundleName}\*"; DestDir: "{app}"; Flags: ignoreversion recursesubdirs createallsubdirs
Source: "{#ManualSource}"; DestDir: "{app}\docs\manual"; Flags: ignoreversion

[Icons]
Name: "{group}\{#AppName}"; Filename: "{app}\{#AppExe}"; WorkingDir: "{app}"
Name: "{group}\Cópia de segurança do banco de dados"; Filename: "{app}\{#AppExe}"; Parameters: "backup --out ""{userdocs}\Transporte por Aplicativo - cópia de segurança.sqlite3"""; WorkingDir: "{userdocs}"; Comment: "Grava uma cópia do banco de dados em Documentos (SQLite; no PostgreSQL, pg_dump)"
Name: "{group}\Manual do usuário"; Filename: "{app}\{#ManualPath}"
Name: "{group}\{cm:UninstallProgram,{#AppName}}"; Filename: "{uninstallexe}"
Name: "{autodesktop}\{#AppName}"; Filename: "{app}\{#AppExe}"; WorkingDir: "{app}"; Tasks: desktopicon

[Run]
Filename: "{app}\{#AppExe}"; Description: "{cm:LaunchProgram,{#AppName}}"; Flags: nowait postinstall skipifsilent

; No [UninstallDelete] section: the uninstaller removes only what [Files] installed. The data folder
; %LOCALAPPDATA%\{#DataFolderName} (database, settings, key files) is never touched.
