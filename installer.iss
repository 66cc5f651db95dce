; Inno Setup script for the Windows installer of "Transporte por Aplicativo" (Lei nº 2.103/2025).
; Build steps on a Windows build machine (Python 3.11+):
;   python -m pip install -e . pyinstaller
;   pyinstaller --noconfirm --windowed --name TransporteAplicativo ^
;       --add-data "resources;resources" --collect-submodules desktop --collect-data desktop ^
;       --exclude-module PySide6.QtWebEngineCore desktop\__main__.py
;   iscc installer.iss
; The program keeps its database in the user's data folder (%LOCALAPPDATA%\ChapadaTransporte), never in
; Program Files, so uninstalling does not remove any legal record.

#define AppName "Transporte por Aplicativo"
#define AppVersion "0.1.0"
#define AppPublisher "Prefeitura Municipal de Chapada dos Guimarães"
#define AppExe "TransporteAplicativo.exe"

[Setup]
AppId={{6C1F6E52-2F4B-4C1E-9D1A-2103C2025A01}
AppName={#AppName}
AppVersion={#AppVersion}
AppPublisher={#AppPublisher}
DefaultDirName={autopf}\TransporteAplicativo
DefaultGroupName={#AppName}
OutputDir=dist\installer
OutputBaseFilename=TransporteAplicativo-{#AppVersion}-setup
Compression=lzma2
SolidCompression=yes
ArchitecturesInstallIn64BitMode=x64compatible
PrivilegesRequiredOverridesAllowed=dialog
WizardStyle=modern
UninstallDisplayIcon={app}\{#AppExe}

[Languages]
Name: "brazilianportuguese"; MessagesFile: "compiler:Languages\BrazilianPortuguese.isl"

[Tasks]
Name: "desktopicon"; Description: "{cm:CreateDesktopIcon}"; GroupDescription: "{cm:AdditionalIcons}"

[Files]
Source: "dist\TransporteAplicativo\*"; DestDir: "{app}"; Flags: ignoreversion recursesubdirs createallsubdirs

[Icons]
Name: "{group}\{#AppName}"; Filename: "{app}\{#AppExe}"
Name: "{group}\Cópia de segurança do banco de dados"; Filename: "{app}\{#AppExe}"; Parameters: "backup --out ""{userdocs}\transporte-copia.sqlite3"""
Name: "{group}\{cm:UninstallProgram,{#AppName}}"; Filename: "{uninstallexe}"
Name: "{autodesktop}\{#AppName}"; Filename: "{app}\{#AppExe}"; Tasks: desktopicon

[Run]
Filename: "{app}\{#AppExe}"; Description: "{cm:LaunchProgram,{#AppName}}"; Flags: nowait postinstall skipifsilent
