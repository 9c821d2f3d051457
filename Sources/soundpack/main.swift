// The soundpack executable: everything lives in SoundpackCLI so it can be tested.
import SoundpackCLI

await SoundpackCommand.main()
