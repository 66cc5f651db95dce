"""What the registry's services share, so that none of them imports another in a circle (issue 10, item 2):

- `history`: the authorization's events and rows as the driver's and the vehicle's pages read them;
- `events`: the one way an authorization's status changes and is recorded (event + audit), used by the lifecycle
  commands, the descadastramento and the automatic jobs;
- `deregistration`: the descadastramento of a driver or a vehicle (Art. 24, I, d and f).

The import graph runs one way: `registry.*` ← `drivers`, `vehicles` ← `authorizations` ← `jobs`.
"""
